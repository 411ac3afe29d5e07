CREATE TABLE "svc_user_invites" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"created_by" integer,
	"created_utc" timestamp(0) DEFAULT date_trunc('second', now() at time zone 'utc') NOT NULL,
	"expires_utc" timestamp(0) NOT NULL
);
--> statement-breakpoint
ALTER TABLE "svc_user_invites" ADD CONSTRAINT "svc_user_invites_user_id_svc_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."svc_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "svc_user_invites" ADD CONSTRAINT "svc_user_invites_created_by_svc_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."svc_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "svc_user_invites_user" ON "svc_user_invites" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "svc_user_invites_token_hash" ON "svc_user_invites" USING btree ("token_hash");