-- The shared authenticator's used codes: each person now has their own (staff_totp_uses, 0031).
DROP TABLE "admin_totp_uses" CASCADE;
