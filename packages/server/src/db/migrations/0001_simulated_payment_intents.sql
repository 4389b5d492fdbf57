CREATE TABLE "simulated_payment_intents" (
	"id" text PRIMARY KEY NOT NULL,
	"client_secret" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency" text NOT NULL,
	"metadata" jsonb NOT NULL,
	"status" text NOT NULL,
	"last_error" text,
	"card_brand" text,
	"card_last4" text,
	"billing_name" text,
	"billing_email" text,
	"refund_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "simulated_payment_intents_client_secret_unique" UNIQUE("client_secret"),
	CONSTRAINT "simulated_payment_intents_idempotency_key_unique" UNIQUE("idempotency_key")
);
