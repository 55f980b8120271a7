CREATE TABLE "admin_totp_uses" (
	"step" bigint PRIMARY KEY NOT NULL,
	"used_at" timestamp with time zone DEFAULT now() NOT NULL
);
