"""What several features share: seats held by a browser, tokens, join codes, HTTP helpers, form parts, limits."""
