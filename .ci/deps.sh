#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages Yui needs when they are missing:
# "build" for the cgo libraries (GL, X11, ALSA), "package" adds xz-utils (the
# Linux archive), mingw-w64 (the Windows cross-build), nsis and ImageMagick
# (the Windows installer and its icon), "test" adds those and wine (the
# Windows build's end-to-end tests, 64-bit only: no i386 architecture),
# Xvfb, xdotool, espeak-ng, sox, ImageMagick, openbox (the window manager
# the body tool test runs under), chromium (the browser tool's test),
# pocketsphinx (with its US English model, the voice e2e test's
# speech-to-text command), desktop-file-validate (the package test), and
# mutter, XWayland and D-Bus (GNOME's compositor, headless, for the
# e2e-mutter group) for the end-to-end tests, GNOME Shell, KWin, foot and
# zenity (native Wayland windows), gsettings and the XDG desktop portal with
# its GNOME backend (screen looks) for the e2e-wayland group,
# and gnome-keyring with
# dbus-run-session (dbus-daemon) for the keyring test, which runs a real
# Secret Service on a private bus; fonts-noto-cjk (the CJK font the
# screenshot tests in Japanese, Korean and Chinese draw with); PulseAudio
# with its tools and the ALSA plugin for the hands-free room rig
# (docs/hands-free.md); nodejs and npm (where no node is found) for the MCP
# reference servers the Makefile's mcp-servers step installs.
set -euo pipefail
want=(gcc pkg-config libgl1-mesa-dev xorg-dev libx11-dev libxrandr-dev libxcursor-dev
      libxinerama-dev libxi-dev libxxf86vm-dev libasound2-dev)
case "${1:-build}" in
  package) want+=(xz-utils gcc-mingw-w64-x86-64 nsis imagemagick) ;;
  test) want+=(xz-utils gcc-mingw-w64-x86-64 nsis wine wine64 xvfb xauth xdotool espeak-ng sox imagemagick x11-utils
               openbox chromium pocketsphinx pocketsphinx-en-us desktop-file-utils
               mutter xwayland dbus dbus-x11 gnome-keyring dbus-daemon fonts-noto-cjk
               pulseaudio pulseaudio-utils libasound2-plugins
               gnome-shell kwin-wayland foot zenity libglib2.0-bin
               xdg-desktop-portal xdg-desktop-portal-gnome) ;;
esac
# nodejs and npm run the MCP reference servers of the e2e tests; where a
# node is installed already (another way than Debian's), it is used.
if [ "${1:-build}" = test ] && ! command -v node >/dev/null; then want+=(nodejs npm); fi
missing=()
for p in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
