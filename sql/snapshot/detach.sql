DETACH published
