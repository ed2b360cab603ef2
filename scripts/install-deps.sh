#!/usr/bin/env bash
# Installs what clipforge needs on a fresh Debian machine, and nothing that is already there:
# Debian packages for the render tier (ffmpeg with flite/libass/x264, pocketsphinx, fonts, Python),
# the pinned yt-dlp into the project's own virtual environment, then the npm dependencies (which
# bring Node 22 for wrangler) when package-lock.json changed. Quiet: one line per thing installed.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian's Python makes the yt-dlp environment (the image's is Debian's too); another python3 without it.
python=/usr/bin/python3
[ -x "$python" ] || python=python3

apt_install() {
  echo "▸ Installing Debian packages: $*"
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

need=()
command -v ffmpeg >/dev/null || need+=(ffmpeg)
# python3-venv brings ensurepip, without which Debian's `python3 -m venv` makes no pip.
command -v "$python" >/dev/null || need+=(python3)
"$python" -c 'import ensurepip' 2>/dev/null || need+=(python3-venv)
command -v pocketsphinx_continuous >/dev/null || need+=(pocketsphinx)
[ -d /usr/share/pocketsphinx/model/en-us ] || need+=(pocketsphinx-en-us)
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf ] || need+=(fonts-dejavu-core)
# Caption fallback fonts for non-Latin transcripts (looks.ts FALLBACK_FONTS: Devanagari, Arabic,
# Hebrew, Thai, … and Chinese/Japanese/Korean).
[ -f /usr/share/fonts/truetype/noto/NotoSansDevanagari-Bold.ttf ] || need+=(fonts-noto-core)
[ -f /usr/share/fonts/truetype/noto/NotoSansThai-Bold.ttf ] || need+=(fonts-noto-core)
[ -f /usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc ] || need+=(fonts-noto-cjk)
# Caption looks' fonts (packages/contract/src/looks.ts) and monochrome emoji for the emoji-accents look.
[ -f /usr/share/fonts/truetype/lato/Lato-Black.ttf ] || need+=(fonts-lato)
[ -f /usr/share/fonts/opentype/bebas-neue/BebasNeue-Bold.otf ] || need+=(fonts-bebas-neue)
[ -f /usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf ] || need+=(fonts-symbola)
# The browser tests (make test) drive Debian's Chromium; the demo does not need it.
# The end-to-end tests check the exported ZIP with `unzip -t`.
# The render tier's script tests read captions back with tesseract (containers/render/test/scripts.test.ts).
if [ "${1:-}" = "--for-tests" ]; then
  [ -x /usr/bin/chromium ] || need+=(chromium)
  command -v unzip >/dev/null || need+=(unzip)
  command -v tesseract >/dev/null || need+=(tesseract-ocr)
  # The end-to-end talks in Hindi, Arabic, Japanese and Spanish are spoken by espeak-ng (languages.e2e.test.ts).
  command -v espeak-ng >/dev/null || need+=(espeak-ng)
  for lang in ara chi-sim deu fra heb hin jpn spa tha tur; do
    [ -f "/usr/share/tesseract-ocr/5/tessdata/${lang/-/_}.traineddata" ] || need+=("tesseract-ocr-$lang")
  done
fi
if [ ${#need[@]} -gt 0 ]; then
  apt_install "${need[@]}"
fi

# yt-dlp: the version the Container image runs (containers/render/yt-dlp.requirements.txt, checked
# by the wheel's hash) in the project's own virtual environment, .venv/yt-dlp, which the render tier
# looks for first (containers/render/src/runtime/tool-paths.ts). Only when pip cannot get it, Debian's
# yt-dlp: 2023.03.04, broken by real sites and older than the fix of CVE-2024-38519, so the tier's
# self-check warns about it.
requirements=containers/render/yt-dlp.requirements.txt
venv=.venv/yt-dlp
if [ ! -x "$venv/bin/yt-dlp" ] || ! cmp -s "$requirements" "$venv/installed-requirements.txt"; then
  echo "▸ Installing yt-dlp $(sed -n 's/^yt-dlp==\([^ ]*\).*/\1/p' "$requirements") into $venv (pip)"
  log=$(mktemp)
  if { [ -x "$venv/bin/pip" ] || "$python" -m venv --clear "$venv"; } >"$log" 2>&1 &&
    "$venv/bin/pip" install --quiet --disable-pip-version-check --no-input \
      --force-reinstall --no-deps --require-hashes -r "$requirements" >>"$log" 2>&1; then
    cp "$requirements" "$venv/installed-requirements.txt"
  else
    echo "  pip could not install it; its last lines:" >&2
    tail -n 5 "$log" | sed 's/^/    /' >&2
    echo "  Falling back to Debian's yt-dlp 2023.03.04 (the render tier's self-check warns about it)." >&2
    command -v yt-dlp >/dev/null || apt_install yt-dlp
  fi
  rm -f "$log"
fi

# npm ci only when node_modules is missing or older than the lockfile.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "▸ Installing npm dependencies (npm ci)"
  # Errors only: the machine's own Node may be older than the engines the packages name, and npm
  # warns once per package (65 lines of EBADENGINE); the Node 22 that npm ci installs here
  # (node_modules/.bin/node) is the one every script runs on, so a newcomer sees progress instead.
  npm ci --no-audit --no-fund --loglevel=error
fi
