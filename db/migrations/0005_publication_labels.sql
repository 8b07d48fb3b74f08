-- A publication made with an injected clock (the demo cycle, or
-- 'publish --now --override-disclosure-period') says so wherever it is served
-- (methodology §19). The publication row records both facts; each package
-- version carries them too, so the rows every read returns (lists, the
-- package, the manifest) are labelled without a join on the hot path.
ALTER TABLE publications ADD COLUMN disclosure_period_overridden boolean NOT NULL DEFAULT false;
-- Every demo publication loaded before this column existed was made with an
-- injected clock.
UPDATE publications SET disclosure_period_overridden = true WHERE demo;

ALTER TABLE package_versions ADD COLUMN demo boolean NOT NULL DEFAULT false;
ALTER TABLE package_versions ADD COLUMN disclosure_period_overridden boolean NOT NULL DEFAULT false;
UPDATE package_versions pv
SET demo = p.demo, disclosure_period_overridden = p.disclosure_period_overridden
FROM publications p
WHERE p.id = pv.publication_id AND (p.demo OR p.disclosure_period_overridden);
