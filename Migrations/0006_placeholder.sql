-- Placeholder for migration 6, which another branch adds (issue 20's branch needs the numbers to run 1, 2, 3...).
-- At merge: drop this file and its lines in Migrations.swift and Package.swift; keep the real 0006.
SELECT 1;
