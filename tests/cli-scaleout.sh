#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-scaleout.sh: the README's many-machine recipe run for real.
#
# Starts sshd on 127.0.0.1 (a free port; host key, user key,
# authorized_keys and sshd_config in a temporary directory, and only
# there) as a second "host", then runs with GNU parallel on this host
# (":") and that one:
#
#	pgn-split -n 4 -d parts in.pgn
#	parallel --sshlogin 2/SSH,2/: --transferfile {} \
#	    --return {.}.sorted --return {.}.rej --cleanup --retries 3 \
#	    'pgn-regularize -q --rejects={.}.rej {} | pgn-sort -o {.}.sorted' \
#	    ::: parts/part*.pgn
#	pgn-sort -m parts/*.sorted; cat parts/*.rej
#
# and compares both byte for byte with the serial pipeline
# (pgn-regularize --rejects | pgn-sort).  Each part's job fails once,
# half-way, after writing part of its output, on whichever host it
# first lands: the retries must leave no game lost or doubled.  The
# input holds a comment with an `[Event "` line, which the old
# --recstart recipe cut in two.
#
# The ssh host's commands run in a home of their own, $T/home
# (ForceCommand), so that files sent there and fetched back really
# travel.  Skipped (77), with the reason, without GNU parallel, sshd, ssh,
# ssh-keygen or rsync, or where sshd cannot start.  sshd runs in a
# mount namespace of its own with a private /run (it wants
# /run/sshd) when that directory is missing and unshare(1) works.
set -u
: "${top_srcdir:?}" "${top_builddir:?}"
B="$top_builddir/src"
F="$top_srcdir/tests/files"
skip() {
	echo "SKIP: $*"
	exit 77
}
command -v parallel >/dev/null 2>&1 &&
    parallel --version 2>/dev/null | grep -q 'GNU parallel' ||
    skip "GNU parallel is not installed"
# (it proves the orchestration; the tools it runs are checked under the
# sanitizers by their own tests)
if grep -q '^SAN_CFLAGS = .*-fsanitize=' "$top_builddir/Makefile" \
    2>/dev/null; then
	skip "sanitizer build"
fi
SSHD=$(command -v sshd 2>/dev/null || echo /usr/sbin/sshd)
[ -x "$SSHD" ] || skip "sshd is not installed (apt-get install openssh-server)"
for c in ssh ssh-keygen rsync; do
	command -v $c >/dev/null 2>&1 || skip "$c is not installed"
done
for t in pgn-split pgn-regularize pgn-sort; do
	[ -x "$B/$t" ] || skip "$t is not built"
done

NAME=scaleout
. "$top_srcdir/tests/testlib.sh"
SSHD_PID=
cleanup() {
	[ -n "$SSHD_PID" ] && kill "$SSHD_PID" 2>/dev/null
	[ -f "$T/sshd.pid" ] && kill "$(cat "$T/sshd.pid" 2>/dev/null)" \
	    2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# ---- sshd on 127.0.0.1, everything in $T ----
ssh-keygen -q -t ed25519 -N '' -f "$T/host_key" || skip "ssh-keygen failed"
ssh-keygen -q -t ed25519 -N '' -f "$T/user_key" || skip "ssh-keygen failed"
cp "$T/user_key.pub" "$T/authorized_keys"
chmod 600 "$T/authorized_keys"
# a free port: bind to port 0 where a tool can, else a random one
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' 2>/dev/null) ||
    PORT=$((20000 + $$ % 20000))
cat >"$T/sshd_config" <<EOF
ListenAddress 127.0.0.1
Port $PORT
HostKey $T/host_key
AuthorizedKeysFile $T/authorized_keys
PidFile $T/sshd.pid
StrictModes no
UsePAM no
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
AllowUsers $(id -un)
MaxStartups 50
MaxSessions 50
ForceCommand HOME=$T/home; export HOME; cd "\$HOME" && exec /bin/sh -c "\$SSH_ORIGINAL_COMMAND"
EOF
mkdir "$T/home"
if [ "$(id -u)" -eq 0 ] && [ ! -d /run/sshd ]; then
	# root's sshd wants its privilege separation directory: give it a
	# private /run, seen by it alone
	unshare -m sh -c 'mount -t tmpfs -o mode=755 tmpfs /run &&
	    mkdir -m 755 /run/sshd && exec "$0" -D -e -f "$1"' \
	    "$SSHD" "$T/sshd_config" 2>"$T/sshd.log" &
else
	"$SSHD" -D -e -f "$T/sshd_config" 2>"$T/sshd.log" &
fi
SSHD_PID=$!
SSH="ssh -p $PORT -i $T/user_key -o BatchMode=yes -o ConnectTimeout=20 -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR"
up=0
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	if $SSH 127.0.0.1 true 2>/dev/null; then
		up=1
		break
	fi
	kill -0 "$SSHD_PID" 2>/dev/null || break
	sleep 0.25
done
[ $up -eq 1 ] || skip "sshd did not start: $(head -c 300 "$T/sshd.log")"
echo "sshd on 127.0.0.1:$PORT"

# ---- the input: fixture games with an `[Event "` line in a comment,
# some rejected, 10 copies ----
mkdir "$T/work" "$T/fails"
cd "$T/work" || exit 99
{
	cat "$F"/sample.pgn "$F"/sort-keys.pgn "$F"/regularize-import.pgn \
	    "$F"/regularize-bad.pgn
	printf '\n[Event "comment"]\n[Site "?"]\n[Date "2024.01.01"]\n'
	printf '[Round "1"]\n[White "A"]\n[Black "B"]\n[Result "*"]\n\n'
	printf '1. e4 {a comment that quotes a game:\n[Event "not a game" here\n'
	printf '[Site "nowhere"] is quoted too} e5 *\n\n'
} >one.pgn
k=1
while [ $k -le 10 ]; do
	sed "s/^\[Round \"/[Round \"$k./" one.pgn
	k=$((k + 1))
done >in.pgn
PATH="$B:$PATH"
export PATH

pgn-regularize -q --rejects=serial.rej in.pgn 2>/dev/null |
    pgn-sort >serial.pgn
[ -s serial.pgn ] && [ -s serial.rej ] || fail "serial pipeline"

pgn-split -q -n 4 -d parts in.pgn || fail "pgn-split"
cat parts/part*.pgn | cmp -s - in.pgn || fail "the parts are not the input"

# Each part's job fails once, half-way, after writing part of its
# output, on whichever host it first lands.
cat >"$T/job.sh" <<'EOF'
#!/bin/sh
# job.sh FAILDIR PART: the README's job; the first run of each part
# writes half its output and fails
part=$1 stem=${1%.pgn} mark=$2/$(basename "$1")
if mkdir "$mark" 2>/dev/null; then
	pgn-regularize -q --rejects="$stem.rej" "$part" | head -c 2000 \
	    >"$stem.sorted"
	echo "job.sh: $part: failing on purpose on $(hostname) in $(pwd)" >&2
	exit 3
fi
pgn-regularize -q --rejects="$stem.rej" "$part" | pgn-sort -o "$stem.sorted"
EOF
chmod +x "$T/job.sh"

t0=$(date +%s)
parallel --will-cite --sshlogin "2/$SSH 127.0.0.1,2/:" \
    --transferfile {} --return {.}.sorted --return {.}.rej --cleanup \
    --retries 3 --joblog joblog \
    "PATH=$B:\$PATH; export PATH; $T/job.sh {} $T/fails" \
    ::: parts/part*.pgn >par.out 2>par.err ||
    fail "parallel over ssh: $(head -c 600 par.err)"
t1=$(date +%s)
nremote=$(awk -F'\t' 'NR > 1 && $2 != ":"' joblog | grep -c .)
nlocal=$(awk -F'\t' 'NR > 1 && $2 == ":"' joblog | grep -c .)
echo "jobs: $nremote over ssh, $nlocal here, each after one failure ($((t1 - t0)) s)"
[ "$nremote" -gt 0 ] || fail "no job ran over ssh"
nfailed=$(ls "$T/fails" | grep -c .)
[ "$nfailed" -eq 4 ] || fail "$nfailed jobs failed once, not 4"
n=$(ls parts/*.sorted 2>/dev/null | grep -c .)
[ "$n" -eq 4 ] || fail "$n sorted parts came back, not 4"
pgn-sort -m parts/part*.sorted >par.pgn || fail "pgn-sort -m"
cat parts/part*.rej >par.rej
if cmp -s serial.pgn par.pgn; then
	echo "ok: sorted over two hosts = serial ($(wc -c <par.pgn) bytes)"
else
	fail "the result over two hosts differs from the serial one"
	ls -l parts >&2
	cat joblog >&2
	cmp serial.pgn par.pgn >&2
	head -c 1000 par.err >&2
fi
if cmp -s serial.rej par.rej; then
	echo "ok: rejects fetched with --return = serial rejects ($(wc -c <par.rej) bytes)"
else
	fail "the rejects over two hosts differ from the serial ones"
fi
# --cleanup removed the copies on the ssh host (its home is $T/home)
left=$(find "$T/home" -path "$T/home/.parallel" -prune -o -type f -print |
    grep -c .)
[ "$left" -eq 0 ] || fail "$left files left on the ssh host"
exit $status
