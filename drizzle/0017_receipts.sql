CREATE TABLE "svc_document_counters" (
	"series" text PRIMARY KEY NOT NULL,
	"last_number" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "svc_order_documents" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"kind" text NOT NULL,
	"number" integer NOT NULL,
	"language" text NOT NULL,
	"snapshot" jsonb NOT NULL,
	"issued_utc" timestamp(0) DEFAULT date_trunc('second', now() at time zone 'utc') NOT NULL
);
--> statement-breakpoint
ALTER TABLE "svc_order_documents" ADD CONSTRAINT "svc_order_documents_order_id_svc_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."svc_orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "svc_order_documents_number" ON "svc_order_documents" USING btree ("number");--> statement-breakpoint
CREATE UNIQUE INDEX "svc_order_documents_order_kind" ON "svc_order_documents" USING btree ("order_id","kind");