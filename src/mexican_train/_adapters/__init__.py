"""Adapters for learning: numpy encodings, PettingZoo and Gymnasium environments, OpenSpiel."""
