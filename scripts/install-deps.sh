#!/usr/bin/env bash
# Installs what clipforge needs on a fresh Debian machine, and nothing that is already there:
# Debian packages for the render tier (ffmpeg with flite/libass/x264, yt-dlp, pocketsphinx, fonts),
# then the npm dependencies (which bring Node 22 for wrangler) when package-lock.json changed.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v ffmpeg >/dev/null || need+=(ffmpeg)
command -v yt-dlp >/dev/null || need+=(yt-dlp)
command -v pocketsphinx_continuous >/dev/null || need+=(pocketsphinx)
[ -d /usr/share/pocketsphinx/model/en-us ] || need+=(pocketsphinx-en-us)
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf ] || need+=(fonts-dejavu-core)
# Caption fallback fonts for non-Latin transcripts (Devanagari, Thai, … and Chinese/Japanese/Korean).
[ -f /usr/share/fonts/truetype/noto/NotoSansDevanagari-Bold.ttf ] || need+=(fonts-noto-core)
[ -f /usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc ] || need+=(fonts-noto-cjk)
# Caption looks' fonts (packages/contract/src/looks.ts) and monochrome emoji for the emoji-accents look.
[ -f /usr/share/fonts/truetype/lato/Lato-Black.ttf ] || need+=(fonts-lato)
[ -f /usr/share/fonts/opentype/bebas-neue/BebasNeue-Bold.otf ] || need+=(fonts-bebas-neue)
[ -f /usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf ] || need+=(fonts-symbola)
# The browser tests (make test) drive Debian's Chromium; the demo does not need it.
if [ "${1:-}" = "--for-tests" ]; then
  [ -x /usr/bin/chromium ] || need+=(chromium)
fi
if [ ${#need[@]} -gt 0 ]; then
  echo "▸ Installing Debian packages: ${need[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

# npm ci only when node_modules is missing or older than the lockfile.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "▸ Installing npm dependencies (npm ci)"
  # Errors only: the machine's own Node may be older than the engines the packages name, and npm
  # warns once per package (65 lines of EBADENGINE); the Node 22 that npm ci installs here
  # (node_modules/.bin/node) is the one every script runs on, so a newcomer sees progress instead.
  npm ci --no-audit --no-fund --loglevel=error
fi
