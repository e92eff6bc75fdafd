#!/usr/bin/env bash
# check_svg.sh SVG PNG: renders SVG in headless Chromium to the screenshot PNG and
# prints PNG's path when the browser drew something. Exit 0 when it did, 1 when the
# screenshot is missing or blank, 2 on bad usage, 77 (skipped, for ctest) when no
# Chromium is installed.
set -u

if [[ $# -ne 2 ]]; then
  echo "usage: check_svg.sh SVG PNG" >&2
  exit 2
fi
svg=$(realpath "$1") || exit 2
png=$(realpath -m "$2") || exit 2
if [[ ! -s "$svg" ]]; then
  echo "check_svg.sh: $svg: no such file or empty" >&2
  exit 2
fi

browser=""
for name in chromium chromium-browser google-chrome; do
  if command -v "$name" >/dev/null; then
    browser=$(command -v "$name")
    break
  fi
done
if [[ -z "$browser" ]]; then
  echo "check_svg.sh: no Chromium found: skipped"
  exit 77
fi

# A profile of its own, so that runs side by side do not share a lock.
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
rm -f "$png"
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
  --user-data-dir="$profile" --screenshot="$png" --window-size=1280,900 \
  "file://$svg" >/dev/null 2>&1

# A blank 1280x900 page compresses to a few KB; the timeline's colours and text to
# far more.
min_bytes=20000
if [[ ! -f "$png" ]]; then
  echo "check_svg.sh: no screenshot written to $png" >&2
  exit 1
fi
size=$(stat -c %s "$png")
if (( size < min_bytes )); then
  echo "check_svg.sh: $png has $size bytes, fewer than $min_bytes: blank?" >&2
  exit 1
fi
echo "$png"
