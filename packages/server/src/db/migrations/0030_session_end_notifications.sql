-- Every app server hears when a session ends (sign-out, sign-out everywhere, a password change, a
-- suspension) or its account is deleted, so it ends that session's live event streams at once:
-- one notification per session, `<user id>:<session id>`, sent on commit.
CREATE FUNCTION notify_session_ended() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('sessions_ended', OLD.user_id::text || ':' || OLD.family_id::text);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER refresh_tokens_revoked AFTER UPDATE OF revoked_at ON refresh_tokens
  FOR EACH ROW WHEN (OLD.revoked_at IS NULL AND NEW.revoked_at IS NOT NULL) EXECUTE FUNCTION notify_session_ended();
--> statement-breakpoint
CREATE TRIGGER refresh_tokens_deleted AFTER DELETE ON refresh_tokens
  FOR EACH ROW EXECUTE FUNCTION notify_session_ended();
