// Package storetest starts real databases for tests: a throwaway
// PostgreSQL cluster from the machine's own PostgreSQL programs.
package storetest

import (
	"context"
	"database/sql"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the database/sql driver "pgx"
)

// cluster is the PostgreSQL cluster the tests of one process share; each
// test gets a database of its own in it.
var cluster struct {
	once sync.Once
	url  string // postgres://…/ without a database
	err  error
	skip string
	stop func()
	n    int
	mu   sync.Mutex
}

// Postgres returns the URL of a new, empty database in a PostgreSQL
// cluster started for this test process (in a temporary folder, on a free
// loopback port, with the programs of Debian's postgresql package). Where
// PostgreSQL is not installed the test is skipped with the reason, or
// fails when CI=true (CI installs it). TABULA_POSTGRES, if set, is a URL
// of a server to use instead (it must allow creating databases).
func Postgres(t testing.TB) string {
	t.Helper()
	cluster.once.Do(start)
	if cluster.skip != "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("PostgreSQL is needed under CI: %s", cluster.skip)
		}
		t.Skipf("skipping: %s", cluster.skip)
	}
	if cluster.err != nil {
		t.Fatalf("starting PostgreSQL: %v", cluster.err)
	}
	cluster.mu.Lock()
	cluster.n++
	name := fmt.Sprintf("t%d_%d", os.Getpid(), cluster.n)
	cluster.mu.Unlock()
	admin, err := sql.Open("pgx", cluster.url+"postgres")
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	if _, err := admin.Exec("CREATE DATABASE " + name); err != nil {
		t.Fatalf("creating a database: %v", err)
	}
	t.Cleanup(func() {
		if a, err := sql.Open("pgx", cluster.url+"postgres"); err == nil {
			a.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)")
			a.Close()
		}
	})
	return cluster.url + name
}

// Stop stops the cluster, if one was started; call it from TestMain.
func Stop() {
	if cluster.stop != nil {
		cluster.stop()
	}
}

func start() {
	if url := os.Getenv("TABULA_POSTGRES"); url != "" {
		cluster.url = strings.TrimSuffix(url, "/") + "/"
		if i := strings.LastIndex(strings.TrimPrefix(cluster.url, "postgres://"), "/"); i >= 0 {
			cluster.url = cluster.url[:len("postgres://")+i+1]
		}
		return
	}
	bin, ok := findBin()
	if !ok {
		cluster.skip = "PostgreSQL is not installed (apt-get install postgresql)"
		return
	}
	dir, err := os.MkdirTemp("", "tabula-pg-")
	if err != nil {
		cluster.err = err
		return
	}
	// PostgreSQL refuses to run as root: run it as the postgres user.
	var run []string
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			cluster.skip = "running as root and there is no postgres user to run PostgreSQL as"
			return
		}
		if err := chownAll(dir, u); err != nil {
			cluster.err = err
			return
		}
		run = []string{"runuser", "-u", "postgres", "--"}
	}
	data := filepath.Join(dir, "data")
	port := freePort()
	cmd := func(args ...string) *exec.Cmd {
		all := append(append([]string{}, run...), args...)
		c := exec.Command(all[0], all[1:]...)
		c.Dir = dir
		return c
	}
	if out, err := cmd(filepath.Join(bin, "initdb"), "-D", data, "-A", "trust", "-U", "tabula", "--no-sync").CombinedOutput(); err != nil {
		cluster.err = fmt.Errorf("initdb: %v\n%s", err, out)
		return
	}
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200", port, dir)
	if out, err := cmd(filepath.Join(bin, "pg_ctl"), "-D", data, "-o", opts, "-l", filepath.Join(dir, "log"), "-w", "start").CombinedOutput(); err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "log"))
		cluster.err = fmt.Errorf("pg_ctl start: %v\n%s\n%s", err, out, log)
		return
	}
	cluster.url = fmt.Sprintf("postgres://tabula@127.0.0.1:%d/", port)
	cluster.stop = func() {
		cmd(filepath.Join(bin, "pg_ctl"), "-D", data, "-m", "immediate", "stop").Run()
		os.RemoveAll(dir)
	}
	// Wait until it accepts connections.
	deadline := time.Now().Add(20 * time.Second)
	for {
		db, err := sql.Open("pgx", cluster.url+"postgres")
		if err == nil {
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			err = db.PingContext(ctx)
			cancel()
			db.Close()
		}
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			cluster.err = fmt.Errorf("PostgreSQL does not answer: %v", err)
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// findBin finds the folder of initdb and pg_ctl.
func findBin() (string, bool) {
	if p, err := exec.LookPath("initdb"); err == nil {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Dir(real), true
		}
		return filepath.Dir(p), true
	}
	matches, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	if len(matches) == 0 {
		return "", false
	}
	return filepath.Dir(matches[len(matches)-1]), true
}

func chownAll(dir string, u *user.User) error {
	var uid, gid int
	fmt.Sscan(u.Uid, &uid)
	fmt.Sscan(u.Gid, &gid)
	return os.Chown(dir, uid, gid)
}

func freePort() int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 54329
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}
