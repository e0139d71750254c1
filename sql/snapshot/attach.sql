-- Open the snapshot being written beside the warehouse's database, as schema `published`.
ATTACH $path AS published
