ALTER TYPE "public"."notification_kind" ADD VALUE 'payment-sent';--> statement-breakpoint
ALTER TYPE "public"."notification_kind" ADD VALUE 'payment-refunded';