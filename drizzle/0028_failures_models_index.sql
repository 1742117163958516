-- The models of failures indexed apart (issue 28, logs API): level=error with a model filter ANDs a bitmap of the
-- failures that used the model instead of every run's. Building it reads the logs once (about a second per million
-- logs on the 2-core bench machine), holding writes to executions meanwhile; reads go on.
CREATE INDEX "executions_failures_models_idx" ON "executions" USING gin ("models") WHERE "executions"."level" = 'error';