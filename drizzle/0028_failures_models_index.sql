-- The models of failures indexed apart (issue 28, logs API): level=error with a model filter ANDs a bitmap of the
-- failures that used the model instead of every run's. Building it reads the failures only (well under a second per
-- million logs at 5% failures), holding writes to executions meanwhile; reads go on.
CREATE INDEX "executions_failures_models_idx" ON "executions" USING gin ("models") WHERE "executions"."level" = 'error';