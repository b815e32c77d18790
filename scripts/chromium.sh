#!/usr/bin/env bash
# Make sure Debian's Chromium is installed for the browser tests (Playwright's own browser download cannot work
# here), with the Noto CJK fonts that draw the Korean and Chinese pages. Prints the browser's path.
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
fc-list 2>/dev/null | grep -q "Noto Sans CJK" || need+=(fonts-noto-cjk)
if [ ${#need[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq "${need[@]}" >/dev/null
fi
command -v chromium
