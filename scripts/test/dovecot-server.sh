#!/usr/bin/env bash
# Starts a throw-away Dovecot IMAP server on a loopback port for tests, and stops it by PID.
#   scripts/test/dovecot-server.sh start DIR PORT USER PASSWORD [SEED_MAILDIR]
#   scripts/test/dovecot-server.sh stop DIR
# Everything (config, passwd-file, Maildir, sockets, log, pid) lives under DIR. Plain-text
# IMAP on 127.0.0.1 only (no TLS). The user's INBOX is seeded with a copy of SEED_MAILDIR's
# cur/ and new/. With IMAPS_PORT set, TLS is on: a throw-away CA and a server certificate for
# localhost/127.0.0.1 are made with openssl (CA at DIR/ca.pem), imaps listens on IMAPS_PORT,
# the plain port offers STARTTLS and refuses plain-text logins. Needs Debian's dovecot-imapd (scripts/setup/install-deps.sh test). Prints the
# master PID on success; on failure prints the log and exits non-zero. The server stops by
# itself within a second or two of its caller's death (the parent PID, or DOVECOT_PARENT_PID).
set -euo pipefail

cmd=${1:-}
dir=${2:-}
[ -n "$cmd" ] && [ -n "$dir" ] || { echo "usage: $0 start DIR PORT USER PASSWORD [SEED] | stop DIR" >&2; exit 2; }

stop() {
  local pidfile="$dir/run/master.pid"
  [ -f "$pidfile" ] || exit 0
  local pid
  pid=$(cat "$pidfile")
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || exit 0; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true
}

# alive PID: the process exists and is not a zombie (a killed parent nobody reaped yet).
alive() {
  local stat
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
  [ "$(echo "${stat##*) }" | cut -d' ' -f1)" != Z ]
}

start() {
  local port=$1 user=$2 password=$3 seed=${4:-}
  local dovecot
  dovecot=$(command -v dovecot || echo /usr/sbin/dovecot)
  [ -x "$dovecot" ] || { echo "dovecot not installed (apt-get install dovecot-imapd)" >&2; exit 3; }
  dir=$(realpath "$dir")
  mkdir -p "$dir"/{run,state,home}
  local maildir="$dir/mail/$user"
  mkdir -p "$maildir"/{cur,new,tmp}
  if [ -n "$seed" ]; then
    for sub in cur new; do
      [ -d "$seed/$sub" ] && find "$seed/$sub" -maxdepth 1 -type f ! -name '.*' -exec cp {} "$maildir/$sub/" \;
    done
  fi
  printf '%s:{PLAIN}%s\n' "$user" "$password" >"$dir/users"
  local uid gid me
  uid=$(id -u); gid=$(id -g); me=$(id -un)
  local users=""
  if [ "$uid" -ne 0 ]; then
    # Unprivileged: every Dovecot process runs as the caller.
    users="default_login_user = $me
default_internal_user = $me"
  else
    # As root, Dovecot refuses uid 0 for mail access: the mail belongs to nobody.
    uid=$(id -u nobody); gid=$(id -g nobody)
    mkdir -p "$dir/home/$user"
    chown -R "$uid:$gid" "$dir/mail" "$dir/home"
  fi
  local tls="ssl = no
disable_plaintext_auth = no" imaps_port=0
  if [ -n "${IMAPS_PORT:-}" ]; then
    imaps_port=$IMAPS_PORT
    local ec=(-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes)
    openssl req -x509 "${ec[@]}" -keyout "$dir/ca.key" -out "$dir/ca.pem" -days 2 -subj /CN=digest-test-ca \
      -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign 2>/dev/null
    openssl req "${ec[@]}" -keyout "$dir/server.key" -out "$dir/server.csr" -subj /CN=localhost 2>/dev/null
    printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' >"$dir/server.ext"
    openssl x509 -req -in "$dir/server.csr" -CA "$dir/ca.pem" -CAkey "$dir/ca.key" -CAcreateserial \
      -out "$dir/server.pem" -days 2 -extfile "$dir/server.ext" 2>/dev/null
    tls="ssl = required
ssl_cert = <$dir/server.pem
ssl_key = <$dir/server.key
disable_plaintext_auth = yes"
  fi
  cat >"$dir/dovecot.conf" <<CONF
base_dir = $dir/run
state_dir = $dir/state
log_path = $dir/dovecot.log
protocols = imap
listen = 127.0.0.1
$tls
auth_mechanisms = plain login
mail_location = maildir:$dir/mail/%u
$users
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u $dir/users
}
userdb {
  driver = static
  args = uid=$uid gid=$gid home=$dir/home/%u
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = $port
  }
  inet_listener imaps {
    address = 127.0.0.1
    port = $imaps_port
  }
}
service anvil {
  chroot =
}
service imap-login {
  chroot =
}
CONF
  chmod -R a+rX "$dir"
  # The daemon must not keep the caller's stdout/stderr open (a test reading them would hang).
  "$dovecot" -c "$dir/dovecot.conf" </dev/null >>"$dir/dovecot.log" 2>&1 || { cat "$dir/dovecot.log" >&2; exit 1; }
  for _ in $(seq 100); do
    # The master may listen before it has written its pid file: wait for both.
    if [ -s "$dir/run/master.pid" ] && (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      local master
      master=$(cat "$dir/run/master.pid")
      # A watchdog stops the server once the caller is gone (a test process killed hard never
      # runs its `stop`), checking every second, and after DOVECOT_MAX_SECONDS (600) at the
      # latest; it holds none of the caller's streams. The caller is this script's parent, or
      # DOVECOT_PARENT_PID.
      local parent=${DOVECOT_PARENT_PID:-$PPID}
      (
        end=$((SECONDS + ${DOVECOT_MAX_SECONDS:-600}))
        while [ "$SECONDS" -lt "$end" ] && alive "$parent" && alive "$master"; do sleep 1; done
        kill "$master" 2>/dev/null
      ) </dev/null >/dev/null 2>&1 &
      disown
      echo "$master"
      return 0
    fi
    sleep 0.05
  done
  echo "dovecot did not listen on 127.0.0.1:$port" >&2
  cat "$dir/dovecot.log" >&2 2>/dev/null || true
  stop
  exit 1
}

case "$cmd" in
  start) shift 2; start "$@" ;;
  stop) stop ;;
  *) echo "unknown command $cmd" >&2; exit 2 ;;
esac
