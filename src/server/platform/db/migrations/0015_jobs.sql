-- The durable job queue (docs/architecture.md, "Jobs"): what must happen after a change is written in the change's
-- own transaction and carried out by a worker, with retries and back-off.
CREATE TABLE jobs (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id bigint REFERENCES organizations (id),
  kind            text NOT NULL CHECK (length(kind) BETWEEN 1 AND 100),
  -- at most one job per key, ever: enqueueing a key already present does nothing
  key             text UNIQUE CHECK (length(key) BETWEEN 1 AND 200),
  payload         jsonb NOT NULL DEFAULT '{}'::jsonb,
  status          text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'failed')),
  run_at          timestamptz NOT NULL,
  -- claims so far, the one running included
  attempts        integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  -- seconds to wait after each failed attempt; once they are used up, the next failure fails the job
  retry_delays    jsonb NOT NULL,
  -- a running job's lease: past it, the worker is taken for dead and another worker claims the job again
  locked_until    timestamptz,
  last_error      text,
  created_at      timestamptz NOT NULL,
  updated_at      timestamptz NOT NULL,
  finished_at     timestamptz,
  CHECK (status <> 'running' OR locked_until IS NOT NULL)
);

-- What a worker claims: queued jobs that are due, and running jobs whose lease ran out.
CREATE INDEX jobs_due ON jobs (run_at, id) WHERE status = 'queued';
CREATE INDEX jobs_leased ON jobs (locked_until) WHERE status = 'running';
