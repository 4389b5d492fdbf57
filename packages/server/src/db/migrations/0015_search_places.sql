CREATE TABLE "search_places" (
	"place" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE INDEX "products_place_idx" ON "products" USING btree (furniture_fold("location"));