// Command sdj-harness drives the real Simple Durable Jobs library (v4.5.1, pinned in go.mod) for
// the console's integration tests: it migrates a database with the library's own Migrate(),
// enqueues through the Go API, runs a real worker with three known handlers, and dumps the
// schema the library produced. Every subcommand prints one JSON document on stdout; logs go to
// stderr.
//
//	sdj-harness migrate     --url URL
//	sdj-harness enqueue     --url URL --type T [--args JSON] [--queue Q] [--priority N] [--retries N]
//	                        [--delay D | --run-at RFC3339] [--unique KEY]
//	sdj-harness worker      --url URL --queues a,b --out FILE [--max-jobs N] [--max-waiting N] [--duration D]
//	sdj-harness dump-schema --url URL
//	sdj-harness op          --url URL requeue|retry|cancel|delete|delete-subtree ID
//	sdj-harness op          --url URL --queue Q --status S purge
//
// URL is postgresql://… or mysql://user:pass@host:port/db (made into a UTC go-sql-driver DSN,
// which the library requires).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"time"

	jobs "github.com/jdziat/simple-durable-jobs/v4"
)

func main() {
	if len(os.Args) < 2 {
		fail(fmt.Errorf("usage: sdj-harness migrate|enqueue|worker|dump-schema|op --url URL [flags]"))
	}
	cmd, args := os.Args[1], os.Args[2:]
	var err error
	switch cmd {
	case "migrate":
		err = runMigrate(args)
	case "enqueue":
		err = runEnqueue(args)
	case "worker":
		err = runWorker(args)
	case "dump-schema":
		err = runDumpSchema(args)
	case "op":
		err = runOp(args)
	default:
		err = fmt.Errorf("unknown subcommand %q", cmd)
	}
	if err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "sdj-harness:", err)
	os.Exit(1)
}

func printJSON(v any) error {
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func runMigrate(argv []string) error {
	fs := flag.NewFlagSet("migrate", flag.ExitOnError)
	url := fs.String("url", os.Getenv("SDJ_URL"), "postgresql:// or mysql:// URL")
	_ = fs.Parse(argv)
	st, err := openStorage(*url)
	if err != nil {
		return err
	}
	if err := st.Migrate(context.Background()); err != nil {
		return fmt.Errorf("Migrate: %w", err)
	}
	return printJSON(map[string]any{"migrated": true})
}

func runEnqueue(argv []string) error {
	fs := flag.NewFlagSet("enqueue", flag.ExitOnError)
	url := fs.String("url", os.Getenv("SDJ_URL"), "postgresql:// or mysql:// URL")
	typ := fs.String("type", "record", "registered job name")
	argsJSON := fs.String("args", "{}", "job arguments as JSON")
	queueName := fs.String("queue", "default", "queue name")
	priority := fs.Int("priority", 0, "priority (higher runs first)")
	retries := fs.Int("retries", -1, "max retries (-1: the library default)")
	delay := fs.Duration("delay", 0, "run after this delay")
	runAt := fs.String("run-at", "", "run at this RFC 3339 time")
	unique := fs.String("unique", "", "unique key (jobs.Unique)")
	_ = fs.Parse(argv)

	// The raw JSON is passed as json.RawMessage so the library stores exactly these bytes.
	var raw json.RawMessage
	if err := json.Unmarshal([]byte(*argsJSON), &raw); err != nil {
		return fmt.Errorf("--args is not JSON: %w", err)
	}
	opts := []jobs.Option{jobs.QueueOpt(*queueName), jobs.Priority(*priority)}
	if *retries >= 0 {
		opts = append(opts, jobs.Retries(*retries))
	}
	if *delay > 0 {
		opts = append(opts, jobs.Delay(*delay))
	}
	if *runAt != "" {
		t, err := time.Parse(time.RFC3339Nano, *runAt)
		if err != nil {
			return fmt.Errorf("--run-at: %w", err)
		}
		opts = append(opts, jobs.At(t))
	}
	if *unique != "" {
		opts = append(opts, jobs.Unique(*unique))
	}
	st, err := openStorage(*url)
	if err != nil {
		return err
	}
	// EnqueueRemote: a producer-only process (like the console) has no handlers registered.
	q := jobs.New(st)
	id, err := q.EnqueueRemote(context.Background(), *typ, raw, opts...)
	if err != nil {
		// A refused enqueue (e.g. a duplicate unique key) is an answer, not a crash: exit 2.
		_ = printJSON(map[string]any{"error": err.Error()})
		os.Exit(2)
	}
	return printJSON(map[string]any{"id": id.String()})
}
