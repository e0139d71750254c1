"""What more than one test file needs: the repository's paths, the flow run and the warehouse
reads and rewrites of the tests, real quotes of the sample corpus, local servers and the report's
browser. Test files import from here, never from each other."""
