ALTER TABLE "files" ADD COLUMN "access" text DEFAULT 'private' NOT NULL;--> statement-breakpoint
CREATE INDEX "files_account_created_idx" ON "files" USING btree ("account_id","created_at");