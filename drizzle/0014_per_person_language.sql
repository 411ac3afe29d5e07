ALTER TABLE "svc_users" ADD COLUMN "language" text;--> statement-breakpoint
ALTER TABLE "svc_outbox" ADD COLUMN "language" text;--> statement-breakpoint
ALTER TABLE "svc_events" ADD COLUMN "language" text;--> statement-breakpoint
ALTER TABLE "svc_attendees" ADD COLUMN "language" text;--> statement-breakpoint
ALTER TABLE "svc_bookings" ADD COLUMN "language" text;--> statement-breakpoint
ALTER TABLE "svc_orders" ADD COLUMN "language" text;