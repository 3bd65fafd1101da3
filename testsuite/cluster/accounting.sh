# accounting.sh - slurm-cluster --accounting: slurmdbd on a private
# MariaDB server, both started and stopped with the cluster.  Sourced by
# slurm-cluster.
#
# The server is Debian's mariadb-server binary run as a private instance,
# never the system service: its data in DIR/db (made anew at each start),
# its socket in DIR/run, TCP on 127.0.0.1 at PORT_BASE+99 for slurmdbd,
# its temporary files in DIR/db-tmp: servers that share /tmp collide on
# temporary table names (two clusters' mariadb-install-db at once failed
# 8 of 60 times with "Unknown table 'mysql.tmp_user_sys'"; 0 of 60 apart).
# slurmdbd listens on 127.0.0.1 at PORT_BASE+98 (DbdPort), reads
# DIR/etc/slurmdbd.conf beside slurm.conf, and stores into a database of
# its own; the cluster is added with sacctmgr before slurmctld starts.
# Both are recorded in DIR/run/pids, so stop ends them with the rest.
# Ports PORT_BASE+98 and +99 leave room for 36 nodes and their gang ports.
#
# SPDX-License-Identifier: GPL-2.0-or-later

MARIADBD=${SLURM_CLUSTER_MARIADBD:-/usr/sbin/mariadbd}
ACCOUNTING_MAX_NODES=36
ACCOUNTING_DB=slurm_acct_db
ACCOUNTING_USER=slurm
# a test server: small redo log and buffer pool (defaults: 96 and 128 MB)
DB_SMALL=(--innodb-log-file-size=8M --innodb-buffer-pool-size=16M)

accounting_ports() {
	DBD_PORT=$((PORT_BASE + 98))
	DB_PORT=$((PORT_BASE + 99))
	DB_SOCKET=$DIR/run/mariadb.sock
}

# Everything --accounting needs, or the reason it cannot run.
accounting_check() {
	local f
	((SITES * NODES_PER_SITE <= ACCOUNTING_MAX_NODES)) ||
		die "--accounting uses ports PORT_BASE+98 and +99: at most $ACCOUNTING_MAX_NODES nodes"
	[[ -x $MARIADBD ]] ||
		die "--accounting needs a MariaDB server: no $MARIADBD (install Debian's mariadb-server; make deps does)"
	for f in mariadb-install-db mariadb mariadb-admin; do
		command -v "$f" > /dev/null ||
			die "--accounting needs $f (Debian's mariadb-server and mariadb-client)"
	done
	[[ -x $SLURM_SBIN/slurmdbd && -f $SLURM_PLUGINS/accounting_storage_mysql.so ]] ||
		die "--accounting needs slurmdbd and its accounting_storage/mysql plugin of Slurm $(series_field "$SLURM_SERIES" 2): not in $SLURM_SBIN and $SLURM_PLUGINS (Debian: install slurmdbd)"
}

# A start that fails half-way stops what it started (munged, mariadbd).
fail_start() {
	cmd_stop > /dev/null 2>&1
	die "$*"
}

db_answers() {
	mariadb-admin --no-defaults --socket="$DB_SOCKET" -u root ping > /dev/null 2>&1
}

# mariadb-install-db's own error lines (its last lines are advice).
install_errors() {
	local errors
	errors=$(grep -m 3 -E 'ERROR|\[ERROR\]' "$1")
	echo "${errors:-$(tail -n 3 "$1")} (see $1)"
}

# A fresh private server with a user for slurmdbd over TCP.
start_mariadb() {
	local log=$DIR/log/mariadb.log install_log=$DIR/log/mariadb-install-db.log i pid
	rm -rf "$DIR/db" "$DIR/db-tmp"
	mkdir -p "$DIR/db" "$DIR/db-tmp"
	mariadb-install-db --no-defaults --datadir="$DIR/db" --user=root \
		--tmpdir="$DIR/db-tmp" \
		--skip-test-db --auth-root-authentication-method=socket \
		"${DB_SMALL[@]}" > "$install_log" 2>&1 ||
		fail_start "mariadb-install-db failed: $(install_errors "$install_log")"
	setsid "$MARIADBD" --no-defaults --datadir="$DIR/db" --user=root \
		--tmpdir="$DIR/db-tmp" \
		--socket="$DB_SOCKET" --port="$DB_PORT" --bind-address=127.0.0.1 \
		--pid-file="$DIR/run/mariadb.pid" --log-error="$log" \
		--skip-name-resolve "${DB_SMALL[@]}" > /dev/null 2>&1 &
	pid=$!
	record_pid mariadbd "$pid" "$MARIADBD"
	for ((i = 0; i < 300; i++)); do
		db_answers && break
		kill -0 "$pid" 2>/dev/null ||
			fail_start "the MariaDB server did not start: $(tail -n 3 "$log" 2>/dev/null || echo "$MARIADBD exited")"
		sleep 0.1
	done
	db_answers || fail_start "the MariaDB server does not answer after 30 s (see $log)"
	DB_PASS=$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')
	mariadb --no-defaults --socket="$DB_SOCKET" -u root -e "
		CREATE USER '$ACCOUNTING_USER'@'127.0.0.1' IDENTIFIED BY '$DB_PASS';
		GRANT ALL ON $ACCOUNTING_DB.* TO '$ACCOUNTING_USER'@'127.0.0.1';" ||
		fail_start "could not create the database user for slurmdbd"
}

write_slurmdbd_conf() {
	local conf=$DIR/etc/slurmdbd.conf
	(
		umask 077	# slurmdbd refuses a conf others may read
		cat > "$conf" <<-CONF
		# slurmdbd.conf of the embedded test cluster (slurm-cluster --accounting)
		AuthType=auth/munge
		AuthInfo=socket=$MUNGE_SOCKET
		DbdHost=localhost
		DbdAddr=127.0.0.1
		DbdPort=$DBD_PORT
		SlurmUser=root
		PidFile=$DIR/run/slurmdbd.pid
		LogFile=$DIR/log/slurmdbd.log
		DebugLevel=$DEBUG_LEVEL
		PluginDir=$SLURM_PLUGINS
		StorageType=accounting_storage/mysql
		StorageHost=127.0.0.1
		StoragePort=$DB_PORT
		StorageUser=$ACCOUNTING_USER
		StoragePass=$DB_PASS
		StorageLoc=$ACCOUNTING_DB
		CONF
	)
}

# slurm.conf's lines for accounting through that slurmdbd.
accounting_conf_lines() {
	echo "AccountingStorageType=accounting_storage/slurmdbd"
	echo "AccountingStorageHost=127.0.0.1"
	echo "AccountingStoragePort=$DBD_PORT"
	# the munged that authenticates us to slurmdbd: the cluster's own
	echo "AccountingStoragePass=$MUNGE_SOCKET"
}

dbd_answers() { timeout 10 sacctmgr -n -P show cluster > /dev/null 2>&1; }

# After write_config (slurm.conf) and export_env, before slurmctld.
start_accounting() {
	local deadline=$((SECONDS + 30)) pid
	accounting_ports
	start_mariadb
	write_slurmdbd_conf
	setsid "$SLURM_SBIN/slurmdbd" -D >> "$DIR/log/slurmdbd.stdout" 2>&1 &
	pid=$!
	record_pid slurmdbd "$pid" "$SLURM_SBIN/slurmdbd"
	while ((SECONDS < deadline)); do
		dbd_answers && break
		kill -0 "$pid" 2>/dev/null ||
			fail_start "slurmdbd did not start: $(tail -n 3 "$DIR/log/slurmdbd.log" 2>/dev/null)"
		sleep 0.2
	done
	dbd_answers || fail_start "slurmdbd does not answer after 30 s (see $DIR/log/slurmdbd.log)"
	timeout 30 sacctmgr -i add cluster "$CLUSTER_NAME" > "$DIR/log/sacctmgr.log" 2>&1 ||
		fail_start "sacctmgr add cluster $CLUSTER_NAME failed: $(tail -n 2 "$DIR/log/sacctmgr.log")"
}
