"""A conformance run: the verdict on each scenario, the run log, expectation files and the reports
rendered from the log.
"""
