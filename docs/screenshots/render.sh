#!/bin/sh
# Renders the README screenshots of the pet window (idle, talking,
# thinking, sleepy) and the strip of the first three, with the preview command
# (windows/internal/preview) under Xvfb on a soft gradient wallpaper.
#
#   docs/screenshots/render.sh        # from the repository root
#
# Needs Xvfb and ImageMagick (convert, display, import), as `make test` does.
set -eu
cd "$(dirname "$0")/../.."
out=docs/screenshots
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/preview" ./windows/internal/preview

n=$((150 + $$ % 50))
Xvfb ":$n" -screen 0 1280x800x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null; rm -rf "$tmp"' EXIT
export DISPLAY=":$n"
sleep 1
convert -size 1280x800 gradient:'#b9d3e6-#e8dcc4' "$tmp/bg.png"

for view in idle talking thinking sleepy; do
	# Xvfb resets the root window when its last client leaves: paint it
	# for each view.
	display -window root "$tmp/bg.png" >/dev/null 2>&1 || true
	"$tmp/preview" --view "$view" 2>"$tmp/$view.log" &
	pid=$!
	sleep 4
	# The window's rectangle, from its pet_window_shown record.
	rect=$(grep -m1 '"pet_window_shown"' "$tmp/$view.log" |
		sed 's/.*"x":\([0-9-]*\),"y":\([0-9-]*\),"width":\([0-9]*\),"height":\([0-9]*\).*/\1 \2 \3 \4/')
	set -- $rect
	import -window root "$tmp/root.png"
	kill $pid
	wait $pid 2>/dev/null || true
	# The window with a 10 px margin of wallpaper.
	convert "$tmp/root.png" -crop "$(($3 + 20))x$(($4 + 20))+$(($1 - 10))+$(($2 - 10))" +repage "$out/$view.png"
done

# The strip: the three side by side, cropped to the pet (bubble, character,
# plate and pill; not the empty composer row).
for view in idle talking thinking; do
	convert "$out/$view.png" -crop 380x480+0+20 +repage "$tmp/strip-$view.png"
done
convert "$tmp/strip-idle.png" "$tmp/strip-talking.png" "$tmp/strip-thinking.png" +append "$out/strip.png"
echo "rendered $out/idle.png talking.png thinking.png sleepy.png strip.png"
