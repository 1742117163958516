-- A paired log (its id is its execution id's pair, src/ids.ts pairedLogId) keeps no execution id in its row (issue 28,
-- stored bytes): 24 bytes a log. Logs written before keep theirs; nothing is rewritten (db/schema.ts logExecutionId).
ALTER TABLE "executions" ALTER COLUMN "execution_id" DROP NOT NULL;
