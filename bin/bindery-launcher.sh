#!/bin/sh
# The `bindery` command of an installed Bindery: runs the app executable in CLI mode. It ships in
# the app's resources/bin; the app's "Install 'bindery' command" menu links it onto PATH. Plain
# Node cannot run the CLI here: the RunAsNode fuse is off, so the executable takes `--cli` instead.
set -e

# Resolve the symlink chain (from /usr/local/bin or ~/.local/bin) to the real resources folder.
self="$0"
while [ -L "$self" ]; do
  link=$(readlink "$self")
  case "$link" in
    /*) self="$link" ;;
    *) self="$(dirname "$self")/$link" ;;
  esac
done
resources=$(cd "$(dirname "$self")/.." && pwd -P)

if [ -d "$resources/../MacOS" ]; then
  # macOS: Bindery.app/Contents/Resources/bin -> Bindery.app/Contents/MacOS/Bindery
  app="$resources/../MacOS/Bindery"
else
  # Linux: <install dir>/resources/bin -> <install dir>/bindery-app
  app="$resources/../bindery-app"
fi
if [ ! -x "$app" ]; then
  echo "bindery: the Bindery app was not found at $app. Reinstall Bindery, then run \"Install 'bindery' command\" from its menu again." >&2
  exit 1
fi

# The CLI must never inherit a Node runtime switch meant for something else.
unset ELECTRON_RUN_AS_NODE
set -- --cli "$@"
if [ "$(uname -s)" = "Linux" ]; then
  # No display (ssh, CI): Chromium must not try to open one for a command that shows no window.
  if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then set -- --ozone-platform=headless "$@"; fi
  # Chromium refuses to start as root without this; in CLI mode no renderer (what it sandboxes) exists.
  if [ "$(id -u)" = 0 ]; then set -- --no-sandbox "$@"; fi
fi
exec "$app" "$@"
