-- Custom SQL migration file, put your code below! --
-- hand-written:
-- A rotated (or deleted) credential sends `credentials:<id>` on the change feed (0005's sluice_notify_change), so
-- the queue consumers using it reopen with the new data at once instead of at their next poll. A rename does not
-- change what a connection uses, so only the data (which bumps version), the type and a delete notify.
CREATE TRIGGER credentials_changed AFTER DELETE OR UPDATE OF data_encrypted, version, type ON credentials
  FOR EACH ROW EXECUTE FUNCTION sluice_notify_change('id');
