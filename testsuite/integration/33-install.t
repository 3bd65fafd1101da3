#!/bin/bash
# make install into a staging root (DESTDIR, PREFIX=/usr): every man page
# of doc/man lands in its section, and the systemd units for a permanent
# coschedd (coschedd(8), EXAMPLES) name the installed agent, pass
# systemd-analyze verify, keep the guardian alive on stop (KillMode=process:
# fail open), and their command line serves a node with the log in syslog,
# not on stderr.  No cluster.
source "$(dirname "$0")/lib/tap.sh"
plan 10

ROOT=$TEST_DIR/root
RUN=$TEST_DIR/run
UNITS=$ROOT/usr/lib/systemd/system
rm -rf "$TEST_DIR" && mkdir -p "$TEST_DIR" "$RUN"

make -s -C "$REPO" install DESTDIR="$ROOT" PREFIX=/usr > "$TEST_DIR/install.log" 2>&1
ok $? "make install DESTDIR=... PREFIX=/usr"

missing=
for m in "$REPO"/doc/man/*.[0-9]; do
	f=${m##*/}
	[[ -f $ROOT/usr/share/man/man${f##*.}/$f ]] || missing+=" $f"
done
is "$missing" "" "every man page of doc/man is installed ($(ls "$REPO"/doc/man | wc -l))"

for u in coschedd.service coschedd@.service; do
	[[ $(sed -n 's/^ExecStart=\([^ ]*\).*/\1/p' "$UNITS/$u" 2>/dev/null) == /usr/sbin/coschedd &&
		-x $ROOT/usr/sbin/coschedd ]]
	ok $? "$u is installed and starts the installed agent (/usr/sbin/coschedd)"
done

grep -qx 'KillMode=process' "$UNITS/coschedd.service" &&
	grep -qx 'KillMode=process' "$UNITS/coschedd@.service"
ok $? "a stop signals the agent only: its guardian restores the jobs should it be killed"

# verify the installed files, with ExecStart pointing into the staging root
if command -v systemd-analyze > /dev/null; then
	mkdir -p "$TEST_DIR/verify"
	for u in coschedd.service coschedd@.service; do
		sed "s|^ExecStart=/usr/sbin/|ExecStart=$ROOT/usr/sbin/|" "$UNITS/$u" > "$TEST_DIR/verify/$u"
	done
	out=$(cd "$TEST_DIR/verify" && systemd-analyze verify --man=no ./coschedd.service ./coschedd@n1.service 2>&1)
	is "$?:$out" "0:" "systemd-analyze verify: no complaint about either unit"
else
	ok 0 "# SKIP no systemd-analyze"
fi

# The unit's command line as systemd runs it: no terminal anywhere.
cmd=$(sed -n 's/^ExecStart=//p' "$UNITS/coschedd@.service")
cmd=${cmd//%i/u1}
cmd=${cmd//\/run\/coschedd/$RUN}
cmd=${cmd/\/usr\/sbin\/coschedd/$ROOT/usr/sbin/coschedd}
# shellcheck disable=SC2086 # the unit's words
setsid $cmd < /dev/null > "$TEST_DIR/agent.out" 2>&1 &
agent=$!
serving() { "$BUILD_DIR/bin/coschedctl" --run-dir "$RUN" --node u1 status > /dev/null 2>&1; }
wait_until 10 serving
ok $? "the unit's command line serves node u1 ($cmd)"
kill -TERM "$agent"
wait_until 10 eval "! kill -0 $agent 2>/dev/null"
ok $? "... stops on the SIGTERM systemd sends"
wait "$agent" 2>/dev/null
is "$(cat "$TEST_DIR/agent.out")" "" "... and, with no terminal, logged nothing to stderr or stdout (syslog instead)"
[[ ! -e $RUN/u1.log ]]
ok $? "... nor to a file in its run directory"
done_testing
