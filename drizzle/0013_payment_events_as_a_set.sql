ALTER TABLE "svc_payment_events" ADD COLUMN "currency" text;--> statement-breakpoint
ALTER TABLE "svc_payments" ADD COLUMN "attention" text;--> statement-breakpoint
CREATE INDEX "svc_payment_events_reference" ON "svc_payment_events" USING btree ("provider","reference");--> statement-breakpoint
CREATE INDEX "svc_payment_events_session" ON "svc_payment_events" USING btree ("provider","session_id");--> statement-breakpoint
CREATE INDEX "svc_payment_events_payment_ref" ON "svc_payment_events" USING btree ("provider","payment_ref");