CREATE INDEX IF NOT EXISTS "users_name_trigram_idx" ON "users" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_email_trigram_idx" ON "users" USING gin ("email" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_admins_idx" ON "users" USING btree ("id") WHERE 'admin' = any("capabilities");
