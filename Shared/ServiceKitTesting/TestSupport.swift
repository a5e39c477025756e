// Test helpers live here.
