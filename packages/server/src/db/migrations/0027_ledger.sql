CREATE TYPE "public"."funds_state" AS ENUM('held', 'frozen', 'released', 'refunded');--> statement-breakpoint
CREATE TYPE "public"."ledger_account_kind" AS ENUM('buyer-payments', 'held', 'available', 'platform-fees', 'payouts', 'refunds');--> statement-breakpoint
CREATE TYPE "public"."ledger_transaction_kind" AS ENUM('charge', 'release', 'refund', 'payout', 'reversal');--> statement-breakpoint
CREATE TYPE "public"."payout_status" AS ENUM('pending', 'paid', 'failed');--> statement-breakpoint
CREATE TYPE "public"."problem_reason" AS ENUM('not-received', 'not-as-described', 'damaged', 'other');--> statement-breakpoint
ALTER TYPE "public"."notification_kind" ADD VALUE 'funds-released';--> statement-breakpoint
ALTER TYPE "public"."notification_kind" ADD VALUE 'payout-paid';--> statement-breakpoint
CREATE TABLE "ledger_accounts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" "ledger_account_kind" NOT NULL,
	"seller_id" uuid,
	CONSTRAINT "ledger_accounts_kind_seller_key" UNIQUE NULLS NOT DISTINCT("kind","seller_id")
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"transaction_id" bigint NOT NULL,
	"account_id" bigint NOT NULL,
	"amount_cents" bigint NOT NULL,
	CONSTRAINT "ledger_entries_amount_not_zero" CHECK ("ledger_entries"."amount_cents" <> 0)
);
--> statement-breakpoint
CREATE TABLE "ledger_transactions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" "ledger_transaction_kind" NOT NULL,
	"booking_id" uuid,
	"payout_id" uuid,
	"product_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payouts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seller_id" uuid NOT NULL,
	"amount_cents" integer NOT NULL,
	"provider" text NOT NULL,
	"status" "payout_status" DEFAULT 'pending' NOT NULL,
	"reference" text,
	"failure" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	CONSTRAINT "payouts_amount_positive" CHECK ("payouts"."amount_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "sale_funds" (
	"booking_id" uuid PRIMARY KEY NOT NULL,
	"seller_id" uuid NOT NULL,
	"amount_cents" integer NOT NULL,
	"fee_cents" integer NOT NULL,
	"state" "funds_state" DEFAULT 'held' NOT NULL,
	"release_at" timestamp with time zone,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sale_problems" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"booking_id" uuid NOT NULL,
	"reason" "problem_reason" NOT NULL,
	"note" text NOT NULL,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolution" text
);
--> statement-breakpoint
CREATE TABLE "simulated_payouts" (
	"id" text PRIMARY KEY NOT NULL,
	"idempotency_key" text NOT NULL,
	"destination" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "simulated_payouts_idempotency_key_unique" UNIQUE("idempotency_key")
);
--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "fee_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_transaction_id_ledger_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."ledger_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_account_id_ledger_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."ledger_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sale_funds" ADD CONSTRAINT "sale_funds_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sale_problems" ADD CONSTRAINT "sale_problems_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ledger_entries_account_idx" ON "ledger_entries" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "ledger_entries_transaction_idx" ON "ledger_entries" USING btree ("transaction_id");--> statement-breakpoint
CREATE INDEX "ledger_transactions_booking_idx" ON "ledger_transactions" USING btree ("booking_id");--> statement-breakpoint
CREATE INDEX "payouts_seller_created_idx" ON "payouts" USING btree ("seller_id","created_at");--> statement-breakpoint
CREATE INDEX "payouts_pending_idx" ON "payouts" USING btree ("created_at") WHERE "payouts"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "sale_funds_seller_state_idx" ON "sale_funds" USING btree ("seller_id","state");--> statement-breakpoint
CREATE UNIQUE INDEX "sale_problems_one_open_key" ON "sale_problems" USING btree ("booking_id") WHERE "sale_problems"."resolved_at" is null;--> statement-breakpoint
CREATE INDEX "sale_problems_open_idx" ON "sale_problems" USING btree ("opened_at") WHERE "sale_problems"."resolved_at" is null;--> statement-breakpoint

-- The ledger is append-only for everyone, the app's own role included (decision 33): a mistake is
-- corrected by a new balanced transaction, never by changing or removing one.
CREATE FUNCTION refuse_ledger_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the ledger is append-only: % on % is not allowed', TG_OP, TG_TABLE_NAME USING ERRCODE = 'insufficient_privilege';
END;
$$;--> statement-breakpoint
CREATE TRIGGER ledger_accounts_append_only BEFORE UPDATE OR DELETE ON ledger_accounts
  FOR EACH ROW EXECUTE FUNCTION refuse_ledger_change();--> statement-breakpoint
CREATE TRIGGER ledger_accounts_no_truncate BEFORE TRUNCATE ON ledger_accounts
  FOR EACH STATEMENT EXECUTE FUNCTION refuse_ledger_change();--> statement-breakpoint
CREATE TRIGGER ledger_transactions_append_only BEFORE UPDATE OR DELETE ON ledger_transactions
  FOR EACH ROW EXECUTE FUNCTION refuse_ledger_change();--> statement-breakpoint
CREATE TRIGGER ledger_transactions_no_truncate BEFORE TRUNCATE ON ledger_transactions
  FOR EACH STATEMENT EXECUTE FUNCTION refuse_ledger_change();--> statement-breakpoint
CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE OR DELETE ON ledger_entries
  FOR EACH ROW EXECUTE FUNCTION refuse_ledger_change();--> statement-breakpoint
CREATE TRIGGER ledger_entries_no_truncate BEFORE TRUNCATE ON ledger_entries
  FOR EACH STATEMENT EXECUTE FUNCTION refuse_ledger_change();--> statement-breakpoint

-- Every transaction balances: checked when the database transaction that wrote its entries
-- commits, once all of them are in, so an unbalanced one is never stored.
CREATE FUNCTION check_ledger_transaction_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  total bigint;
BEGIN
  SELECT sum(amount_cents) INTO total FROM ledger_entries WHERE transaction_id = NEW.transaction_id;
  IF total <> 0 THEN
    RAISE EXCEPTION 'ledger transaction % does not balance: its entries sum to % cents', NEW.transaction_id, total
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER ledger_entries_balanced AFTER INSERT ON ledger_entries
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION check_ledger_transaction_balanced();
