package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	jobs "github.com/jdziat/simple-durable-jobs/v4"
)

// The three handlers the tests rely on, and the error texts they fail with (the dead-letter
// reasons embed them).
const (
	permanentError = "harness: permanent failure"
	alwaysError    = "harness: always errors"
)

// invocation is one handler run, written as a JSON line to --out.
type invocation struct {
	Handler string          `json:"handler"`
	ID      string          `json:"id"`
	Queue   string          `json:"queue"`
	Attempt int             `json:"attempt"`
	Args    json.RawMessage `json:"args"`
}

type fanOutArgs struct {
	ChildType  string            `json:"child_type"`
	ChildQueue string            `json:"child_queue"`
	Items      []json.RawMessage `json:"items"`
}

type recorder struct {
	mu   sync.Mutex
	file *os.File
}

func (r *recorder) write(ctx context.Context, handler string, args json.RawMessage) error {
	job := jobs.JobFromContext(ctx)
	line, err := json.Marshal(invocation{Handler: handler, ID: job.ID.String(), Queue: job.Queue, Attempt: job.Attempt, Args: args})
	if err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, err := r.file.Write(append(line, '\n')); err != nil {
		return err
	}
	return r.file.Sync()
}

func runWorker(argv []string) error {
	fs := flag.NewFlagSet("worker", flag.ExitOnError)
	url := fs.String("url", os.Getenv("SDJ_URL"), "postgresql:// or mysql:// URL")
	queues := fs.String("queues", "default", "comma-separated queues to work")
	out := fs.String("out", "", "file that receives one JSON line per handler run")
	maxJobs := fs.Int("max-jobs", 0, "stop after this many jobs finished (completed or terminally failed); 0: run for --duration")
	maxWaiting := fs.Int("max-waiting", 0, "stop after this many jobs suspended as waiting (a fan-out parent); 0: no such stop")
	duration := fs.Duration("duration", 30*time.Second, "stop after this long in any case")
	_ = fs.Parse(argv)
	if *out == "" {
		return fmt.Errorf("--out is required")
	}
	f, err := os.OpenFile(*out, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	rec := &recorder{file: f}

	st, err := openStorage(*url)
	if err != nil {
		return err
	}
	q := jobs.New(st)
	q.Register("record", func(ctx context.Context, args json.RawMessage) error {
		return rec.write(ctx, "record", args)
	})
	q.Register("fail-permanent", func(ctx context.Context, args json.RawMessage) error {
		if err := rec.write(ctx, "fail-permanent", args); err != nil {
			return err
		}
		return jobs.NoRetry(errors.New(permanentError))
	})
	q.Register("always-error", func(ctx context.Context, args json.RawMessage) error {
		if err := rec.write(ctx, "always-error", args); err != nil {
			return err
		}
		return errors.New(alwaysError)
	})

	// fan-out: a workflow parent that fans its items out as sub-jobs of child_type on child_queue
	// (CollectAll), so the tests get real fan_outs rows, sub-jobs and a waiting parent.
	q.Register("fan-out", func(ctx context.Context, args fanOutArgs) error {
		raw, _ := json.Marshal(args)
		if err := rec.write(ctx, "fan-out", raw); err != nil {
			return err
		}
		subs := make([]jobs.SubJob, len(args.Items))
		for i, item := range args.Items {
			subs[i] = jobs.Sub(args.ChildType, item)
		}
		_, err := jobs.FanOut[json.RawMessage](ctx, subs, jobs.CollectAll(), jobs.WithFanOutQueue(args.ChildQueue))
		return err // a *WaitingError suspends the parent; nil once every child is terminal
	})

	ctx, cancel := context.WithTimeout(context.Background(), *duration)
	defer cancel()
	var completed, failed, waiting atomic.Int64
	finished := func() {
		if *maxJobs > 0 && completed.Load()+failed.Load() >= int64(*maxJobs) {
			cancel()
		}
		if *maxWaiting > 0 && waiting.Load() >= int64(*maxWaiting) {
			cancel()
		}
	}
	q.OnJobComplete(func(context.Context, *jobs.Job) { completed.Add(1); finished() })
	// OnJobFail runs on terminal failures only (a retry calls OnRetry instead).
	q.OnJobFail(func(context.Context, *jobs.Job, error) { failed.Add(1); finished() })
	q.OnJobWaiting(func(context.Context, *jobs.Job) { waiting.Add(1); finished() })

	// Short poll and retry delays so a test's always-error job exhausts its retries in seconds;
	// retention off so the tests find every terminal row.
	opts := []jobs.WorkerOption{
		jobs.WithPollInterval(50 * time.Millisecond),
		jobs.WithBackoff(jobs.BackoffFunc(func(int, error) time.Duration { return 100 * time.Millisecond })),
		jobs.RetentionDisabled(),
		jobs.WithScheduler(false),
		jobs.WithDrainTimeout(5 * time.Second),
	}
	for _, name := range strings.Split(*queues, ",") {
		if name = strings.TrimSpace(name); name != "" {
			opts = append(opts, jobs.WorkerQueue(name, jobs.Concurrency(4)))
		}
	}
	w := jobs.NewWorker(q, opts...)
	started := time.Now()
	if err := w.Start(ctx); err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("worker: %w", err)
	}
	return printJSON(map[string]any{
		"completed": completed.Load(),
		"failed":    failed.Load(),
		"waiting":   waiting.Load(),
		"seconds":   time.Since(started).Seconds(),
	})
}
