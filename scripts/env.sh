#!/usr/bin/env bash
# Sourced by every entry script: makes a fresh machine ready to run Quire.
# - Node >= 22.13 (installs node@24 from the npm registry into .tools/ when the machine's is older)
# - node_modules in step with package-lock.json (npm ci, dev packages included: the builds need them)
# - Chromium for web page → PDF and the e2e tests (Debian's package, when root and missing)
# - Liberation, Carlito and Caladea fonts for PDF → HTML (Debian's packages, when root and missing)
set -euo pipefail
QUIRE_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$QUIRE_ROOT"

node_ok() {
  command -v node >/dev/null 2>&1 || return 1
  node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>22||(a===22&&b>=13)?0:1)'
}
if ! node_ok; then
  if [ ! -x "$QUIRE_ROOT/.tools/node24/node_modules/.bin/node" ]; then
    echo "quire: Node $(node --version 2>/dev/null || echo none) is older than 22.13; installing node@24 into .tools/" >&2
    mkdir -p "$QUIRE_ROOT/.tools/node24"
    npm install --prefix "$QUIRE_ROOT/.tools/node24" --no-save --no-audit --no-fund node@24 >&2
  fi
  export PATH="$QUIRE_ROOT/.tools/node24/node_modules/.bin:$PATH"
fi

stamp="node_modules/.quire-lock-stamp"
if [ ! -d node_modules ] || [ ! -f "$stamp" ] || ! cmp -s package-lock.json "$stamp"; then
  echo "quire: installing npm packages (npm ci)" >&2
  # --include=dev: with NODE_ENV=production npm would leave out the packages that `next build`
  # and the server build need (Tailwind's PostCSS plugin, esbuild...).
  npm ci --include=dev --no-audit --no-fund --loglevel=error >&2
  cp package-lock.json "$stamp"
fi

if [ -z "${CHROMIUM_PATH:-}" ]; then
  for c in /usr/bin/chromium /usr/bin/chromium-browser /usr/bin/google-chrome; do
    if [ -x "$c" ]; then export CHROMIUM_PATH="$c"; break; fi
  done
fi
if [ -z "${CHROMIUM_PATH:-}" ] && [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "quire: installing Debian's chromium (web page → PDF and e2e tests need it)" >&2
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core >/dev/null) >&2 || true
  [ -x /usr/bin/chromium ] && export CHROMIUM_PATH=/usr/bin/chromium
fi
# Debian packages Quire runs (checked with dpkg, installed in one apt-get when root and missing):
#   fonts PDF → HTML draws text in when a PDF does not embed its fonts (metric-compatible with
#   Times/Helvetica/Courier, Calibri, Cambria); native Tesseract with the languages OCR offers and
#   its orientation model (osd); LibreOffice (Writer, Calc) for office documents → PDF;
#   qpdf, poppler-utils and zbar-tools: the CLIs the benchmarks compare against.
debian_packages=(fonts-liberation2 fonts-crosextra-carlito fonts-crosextra-caladea
  tesseract-ocr tesseract-ocr-eng tesseract-ocr-deu tesseract-ocr-fra tesseract-ocr-spa
  tesseract-ocr-ita tesseract-ocr-por tesseract-ocr-nld tesseract-ocr-osd
  libreoffice-writer-nogui libreoffice-calc-nogui qpdf poppler-utils zbar-tools)
if [ "${QUIRE_SKIP_APT:-}" != "1" ]; then
  pkgs_missing=()
  for pkg in "${debian_packages[@]}"; do
    dpkg -s "$pkg" >/dev/null 2>&1 || pkgs_missing+=("$pkg")
  done
  if [ "${#pkgs_missing[@]}" -gt 0 ] && [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "quire: installing Debian's ${pkgs_missing[*]}" >&2
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${pkgs_missing[@]}" >/dev/null) >&2 || true
  fi
fi
export QUIRE_ROOT
