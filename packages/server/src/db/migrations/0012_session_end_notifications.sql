-- Each app server keeps the sessions it has checked, and forgets them when a session may have
-- ended: a refresh token revoked (sign-out, theft) or removed. Using or rotating a token ends
-- nothing and sends nothing, so renewals do not empty every server's sessions.
CREATE TRIGGER refresh_tokens_revoked_data_changes AFTER UPDATE OF revoked_at ON refresh_tokens
  FOR EACH ROW WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at) EXECUTE FUNCTION notify_data_change();
--> statement-breakpoint
CREATE TRIGGER refresh_tokens_removed_data_changes AFTER DELETE OR TRUNCATE ON refresh_tokens
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_change();
