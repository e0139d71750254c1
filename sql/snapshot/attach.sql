-- Open the snapshot being written beside the warehouse's database, as schema `published`.
-- Parameters: $path.
ATTACH $path AS published
