ALTER TABLE "svc_attendees" ADD COLUMN "device_id" integer;--> statement-breakpoint
ALTER TABLE "svc_attendees" ADD COLUMN "client_id" uuid;--> statement-breakpoint
ALTER TABLE "svc_devices" ADD COLUMN "walk_ins" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "svc_attendees_device_client" ON "svc_attendees" USING btree ("device_id","client_id") WHERE "svc_attendees"."client_id" is not null;