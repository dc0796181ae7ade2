#!/bin/sh
# Installs what navbench needs to build, test and render on Debian 12 (run as
# root).  Idempotent: does nothing when everything is already there.
set -eu

packages="
  meson ninja-build pkg-config gcc clang libclang-rt-14-dev
  libglib2.0-dev libgsl-dev libcsv-dev libsqlite3-dev sqlite3 libjson-glib-dev
  libcairo2-dev libpango1.0-dev libgtk-4-dev libsoup-3.0-dev libxml2-dev libyaml-dev
  libserialport-dev
  python3 python3-numpy poppler-utils fonts-dejavu-core xvfb xauth imagemagick socat gpsd-clients
  help2man
  libadwaita-1-dev appstream desktop-file-utils shared-mime-info xdotool locales
"
# node + npm for the independent MCAP reader (tests/mcap); a node or npm
# already on PATH (NodeSource's node bundles npm) is kept as it is.
command -v node >/dev/null 2>&1 || packages="$packages nodejs"
command -v npm >/dev/null 2>&1 || packages="$packages npm"

missing=""
for p in $packages; do
  dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
    missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "install-deps: installing$missing" >&2
  if [ "$(id -u)" -ne 0 ]; then
    echo "install-deps: run as root (or install:$missing)" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=600 update -qq
  # shellcheck disable=SC2086
  apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends $missing >/dev/null
fi

# The Russian locale, for the window's Russian tests and screenshots.
if ! locale -a 2>/dev/null | grep -qi '^ru_RU\.utf-\?8$'; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "install-deps: run as root (or generate the ru_RU.UTF-8 locale)" >&2
    exit 1
  fi
  echo "install-deps: generating the ru_RU.UTF-8 locale" >&2
  sed -i 's/^# *\(ru_RU.UTF-8 UTF-8\)/\1/' /etc/locale.gen
  grep -q '^ru_RU.UTF-8 UTF-8' /etc/locale.gen || echo 'ru_RU.UTF-8 UTF-8' >>/etc/locale.gen
  locale-gen >/dev/null
fi

# The reader's npm modules, pinned by tests/mcap/package-lock.json; installed
# again only when the lock file is newer than the last install.
mcap="$(cd "$(dirname "$0")/.." && pwd)/tests/mcap"
if [ ! -f "$mcap/node_modules/.package-lock.json" ] ||
   [ "$mcap/package-lock.json" -nt "$mcap/node_modules/.package-lock.json" ]; then
  echo "install-deps: npm ci --prefix tests/mcap" >&2
  npm ci --prefix "$mcap" --no-audit --no-fund >&2
fi
