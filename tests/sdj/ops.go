package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	jobs "github.com/jdziat/simple-durable-jobs/v4"
)

// runOp performs one of the library's own operator writes, so the tests can compare the rows it
// leaves with what the console's adapter writes:
//
//	requeue ID | retry ID | cancel ID | delete ID | delete-subtree ID | purge --queue Q --status S
//
// A refusal by the library (wrong status, fan-out guard, ...) prints {"error": ...} and exits 2.
func runOp(argv []string) error {
	fs := flag.NewFlagSet("op", flag.ExitOnError)
	url := fs.String("url", os.Getenv("SDJ_URL"), "postgresql:// or mysql:// URL")
	queueName := fs.String("queue", "", "purge: queue")
	status := fs.String("status", "", "purge: status")
	_ = fs.Parse(argv)
	if fs.NArg() < 1 {
		return fmt.Errorf("op needs requeue|retry|cancel|delete|delete-subtree|purge")
	}
	st, err := openStorage(*url)
	if err != nil {
		return err
	}
	ctx := context.Background()
	var id jobs.UUID
	if fs.Arg(0) != "purge" {
		if id, err = jobs.ParseUUID(fs.Arg(1)); err != nil {
			return err
		}
	}
	out := map[string]any{}
	switch fs.Arg(0) {
	case "requeue": // Queue.Requeue / the CLI's `sdj dlq requeue`
		var ok bool
		ok, err = jobs.New(st).Requeue(ctx, id)
		out["requeued"] = ok
	case "retry": // the dashboard's RetryJob
		_, err = st.RetryJob(ctx, id)
	case "cancel": // Queue.CancelJob -> GormStorage.CancelJobTerminal
		err = jobs.New(st).CancelJob(ctx, id)
	case "delete":
		err = st.DeleteJob(ctx, id)
	case "delete-subtree":
		err = st.DeleteWorkflowSubtree(ctx, id)
	case "purge":
		var n int64
		n, err = st.PurgeJobs(ctx, *queueName, jobs.JobStatus(*status))
		out["deleted"] = n
	default:
		return fmt.Errorf("unknown op %q", fs.Arg(0))
	}
	if err != nil {
		_ = printJSON(map[string]any{"error": err.Error()})
		os.Exit(2)
	}
	out["ok"] = true
	return printJSON(out)
}
