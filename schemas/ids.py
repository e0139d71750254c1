"""The form of a stable requirement ID, shared by every table that holds one."""

REQUIREMENT_ID = r"^REQ-[SP]\d{4,}$"
