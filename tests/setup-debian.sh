#!/bin/sh
# Installs what Foldray needs to build, run and test on Debian 12 (as root).
set -eu
SUDO=
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
$SUDO apt-get update -q
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q -o DPkg::Lock::Timeout=600 \
  build-essential meson ninja-build pkg-config libgtk-4-dev libepoxy-dev libcairo2-dev \
  libjson-glib-dev libsegyio-dev gettext appstream desktop-file-utils xvfb xauth \
  libgl1-mesa-dri mesa-utils xdotool imagemagick python3-numpy \
  clang-14 libclang-rt-14-dev libomp-14-dev locales poppler-utils \
  libegl-dev libopengl-dev libgl-dev \
  groff-base libxml2-utils shared-mime-info libglib2.0-bin
