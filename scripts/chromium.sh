#!/usr/bin/env bash
# Make sure Debian's Chromium is installed for the browser tests (Playwright's own browser download cannot work
# here), with the Noto CJK fonts that draw the Korean and Chinese pages. Prints the browser's path.
#
# The fonts are looked for in fc-list's whole output, not through `fc-list | grep -q`: grep -q stops reading at
# the first match, fc-list then dies of SIGPIPE, and under pipefail the fonts looked missing at random, sending
# several test workers to apt-get at once, where all but one failed on its lock (exit 100). An install, when one
# is needed, waits for any other (flock), then looks again.
set -euo pipefail
missing() {
  need=()
  command -v chromium >/dev/null 2>&1 || need+=(chromium)
  local fonts
  fonts=$(fc-list 2>/dev/null || true)
  [[ "$fonts" == *"Noto Sans CJK"* ]] || need+=(fonts-noto-cjk)
}
missing
if [ ${#need[@]} -gt 0 ]; then
  exec 9>/tmp/splendor-chromium-install.lock
  flock 9
  missing
  if [ ${#need[@]} -gt 0 ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq "${need[@]}" >/dev/null
  fi
fi
command -v chromium
