#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages Yui needs when they are missing:
# "build" for the cgo libraries (GL, X11, ALSA), "test" adds Xvfb, xdotool,
# espeak-ng, sox, ImageMagick, openbox (the window manager the body tool test
# runs under), chromium (the browser tool's test) and pocketsphinx (with its
# US English model, the voice e2e test's speech-to-text command) for the
# end-to-end tests.
set -euo pipefail
want=(gcc pkg-config libgl1-mesa-dev xorg-dev libx11-dev libxrandr-dev libxcursor-dev
      libxinerama-dev libxi-dev libxxf86vm-dev libasound2-dev)
if [ "${1:-build}" = test ]; then
  want+=(xvfb xauth xdotool espeak-ng sox imagemagick x11-utils gcc-mingw-w64-x86-64
         openbox chromium pocketsphinx pocketsphinx-en-us)
fi
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
