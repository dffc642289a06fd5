"""Qt-free application state: everything a user sets, and its session files.

    state = AppState()
    state.events.params.connect(callback)        # psygnal, synchronous
    state.update_params(dk=128)                  # intent: validated, emitted if changed
    write_session(state.snapshot(), "class.json")
    state.restore(read_session("class.json"))

Widgets render this state and send intents to it; nothing reads state out of a widget.
"""
from gui.state.app_state import (AppState, CostSettings, HeadsInput, ModelViewSettings,
                                 StateSnapshot, TrainingSettings, ViewSettings)
from gui.state.session import SessionError, read_session, write_session

__all__ = ["AppState", "CostSettings", "HeadsInput", "ModelViewSettings", "SessionError",
           "StateSnapshot", "TrainingSettings", "ViewSettings", "read_session", "write_session"]
