-- The plan's monthly quota: the org's event clock row counts the month's bookings, and a booking past the quota is
-- refused by this check (402 plan_quota_exceeded).

ALTER TABLE public.org_events DROP CONSTRAINT IF EXISTS plan_quota_exceeded,
  ADD CONSTRAINT plan_quota_exceeded CHECK ((used <= quota));
