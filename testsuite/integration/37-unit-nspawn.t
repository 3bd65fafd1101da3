#!/bin/bash
# The agent under its systemd unit, run by a real systemd: 33-install.t
# can only verify the sandbox's mount and seccomp settings, since no
# systemd runs as PID 1 here.  This boots a Debian bookworm tree (built
# once per machine by debootstrap, cached beside the Slurm builds) in
# systemd-nspawn with the installed coschedd.service enabled, and a probe
# unit that checks, from inside, that the agent runs under the sandbox
# (NoNewPrivileges, a seccomp filter, the capability bounding set without
# CAP_SYS_ADMIN), answers ping, runs at SCHED_FIFO, registers a process,
# starts with the same mechanisms as without the sandbox, and stops
# cleanly; the coschedd@ template too.  No cluster.
source "$(dirname "$0")/lib/tap.sh"
if ! command -v systemd-nspawn > /dev/null || ! command -v debootstrap > /dev/null; then
	skip_all "systemd-nspawn or debootstrap missing (make deps installs them)"
fi
plan 12

CACHE=${COALLOC_CACHE:-/var/cache/coalloc}/nspawn
# what the tree needs beyond minbase: an init, and the agent's libraries
PACKAGES=systemd,systemd-sysv,dbus,libjson-c5,libmunge2,libcgroup2
OS_CACHE=$CACHE/bookworm-$(echo "$PACKAGES" | md5sum | cut -c1-8)
STAGE=$TEST_DIR/stage
OS=$TEST_DIR/os
OUT=$TEST_DIR/out
rm -rf "$TEST_DIR" && mkdir -p "$TEST_DIR" "$OUT"

# The tree, once per machine (concurrent runs wait on the lock).
build_os() {
	[[ -x $OS_CACHE/lib/systemd/systemd ]] && return 0
	mkdir -p "$CACHE"
	(
		flock 9
		[[ -x $OS_CACHE/lib/systemd/systemd ]] && exit 0
		rm -rf "$OS_CACHE.tmp"
		debootstrap --variant=minbase --include="$PACKAGES" bookworm \
			"$OS_CACHE.tmp" > "$TEST_DIR/debootstrap.log" 2>&1 &&
			mv "$OS_CACHE.tmp" "$OS_CACHE"
	) 9> "$CACHE/.lock"
}

build_os
ok $? "a bookworm tree with systemd is at hand ($OS_CACHE)"

make -s -C "$REPO" install DESTDIR="$STAGE" PREFIX=/usr > "$TEST_DIR/install.log" 2>&1
cp -a "$OS_CACHE" "$OS" &&
	install -m 0755 "$STAGE/usr/sbin/coschedd" "$STAGE/usr/bin/coschedctl" "$OS/usr/sbin/" &&
	install -m 0644 "$STAGE"/usr/lib/systemd/system/coschedd*.service "$OS/etc/systemd/system/"
ok $? "the installed agent, coschedctl and both units copied into a fresh tree"

# the same command line with no sandbox, to compare what it starts with
cat > "$OS/etc/systemd/system/coschedd-plain.service" <<'EOF'
[Service]
ExecStart=/usr/sbin/coschedd --node plain --run-dir /run/coschedd-plain
KillMode=process
EOF
cat > "$OS/etc/systemd/system/probe.service" <<'EOF'
[Unit]
After=coschedd.service
Wants=coschedd.service
[Service]
Type=oneshot
ExecStart=/usr/sbin/probe
StandardOutput=file:/out/result
StandardError=inherit
[Install]
WantedBy=multi-user.target
EOF
cat > "$OS/usr/sbin/probe" <<'EOF'
#!/bin/sh
ctl() { /usr/sbin/coschedctl --node "$1" --run-dir "$2" ping; }
node=$(hostname)
for i in 1 2 3 4 5 6 7 8 9 10; do ctl "$node" /run/coschedd > /dev/null 2>&1 && break; sleep 0.5; done
pid=$(systemctl show -p MainPID --value coschedd)
echo "active=$(systemctl is-active coschedd)"
grep -E '^(NoNewPrivs|Seccomp|CapBnd|CapEff):' /proc/$pid/status | tr -d '\t'
echo "ping=$(ctl "$node" /run/coschedd 2>&1)"
echo "policy=$(chrt -p "$pid" | sed -n 's/.*policy: //p')"
sh -c 'sleep 60 & exec /usr/sbin/coschedctl --node '"$node"' --run-dir /run/coschedd request "register job=7 step=0 uid=0 mode=dcs tick_us=10000 spin_ns=0 pid=$! rank=0"' > /tmp/reg 2>&1
echo "register=$(cat /tmp/reg)"
echo "started=$(journalctl -u coschedd -o cat | sed -n 's/^\[[^]]*\] started: //p' | head -n1)"
systemctl stop coschedd
echo "stopped=$(systemctl is-active coschedd) $(journalctl -u coschedd -o cat | grep -c '\] stopped$')"
systemctl start coschedd@tmpl
for i in 1 2 3 4 5 6 7 8 9 10; do ctl tmpl /run/coschedd > /dev/null 2>&1 && break; sleep 0.5; done
echo "template=$(systemctl is-active coschedd@tmpl) $(ctl tmpl /run/coschedd 2>&1)"
systemctl stop coschedd@tmpl
systemctl start coschedd-plain
for i in 1 2 3 4 5 6 7 8 9 10; do ctl plain /run/coschedd-plain > /dev/null 2>&1 && break; sleep 0.5; done
echo "plain=$(journalctl -u coschedd-plain -o cat | sed -n 's/^\[[^]]*\] started: //p' | head -n1)"
systemctl stop coschedd-plain
echo "done"
systemctl poweroff
EOF
chmod 0755 "$OS/usr/sbin/probe"
ln -sf /etc/systemd/system/coschedd.service "$OS/etc/systemd/system/multi-user.target.wants/coschedd.service"
ln -sf /etc/systemd/system/probe.service "$OS/etc/systemd/system/multi-user.target.wants/probe.service"
echo nspawn-agent > "$OS/etc/hostname"

# no systemd outside: nothing to register the machine with, no unit of
# our own to move into (--keep-unit)
timeout 180 systemd-nspawn -q --register=no --keep-unit -D "$OS" --boot \
	--bind="$OUT:/out" > "$TEST_DIR/boot.log" 2>&1
grep -qx done "$OUT/result" 2> /dev/null
ok $? "the tree booted, ran the probe and powered off"
diag "$(cat "$OUT/result" 2> /dev/null)"

field() { sed -n "s/^$1[=:]//p" "$OUT/result" 2> /dev/null | head -n1; }
is "$(field active)" active "coschedd.service is active under systemd"
[[ $(field NoNewPrivs) == 1 && $(field Seccomp) == 2 ]]
ok $? "the agent runs with NoNewPrivileges and a seccomp filter"
bnd=$(field CapBnd)
[[ -n $bnd && $(field CapEff) == "$bnd" ]] && (( !(0x$bnd & (1 << 21)) ))
ok $? "its capabilities are the unit's bounding set, without CAP_SYS_ADMIN ($bnd)"
is "$(field ping)" "ok coschedd" "it answers ping on /run/coschedd (RuntimeDirectory)"
is "$(field policy)" "SCHED_FIFO|SCHED_RESET_ON_FORK" "it runs at SCHED_FIFO"
like "$(field register)" "^ok registered job=7" "it registers a process (ancestry, pidfd, the state file)"
started=$(field started)
[[ -n $started && $started == "$(field plain)" ]]
ok $? "it starts with the same mechanisms as without the sandbox"
is "$(field stopped)" "inactive 1" "systemctl stop: it stopped cleanly"
is "$(field template)" "active ok coschedd" "the coschedd@ template serves its instance's node"
