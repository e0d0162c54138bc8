-- Placeholder for migration 5, which another branch adds (issue 20's branch needs the numbers to run 1, 2, 3...).
-- At merge: drop this file and its lines in Migrations.swift and Package.swift; keep the real 0005.
SELECT 1;
