package party

// BoardDrawing is a board as the page draws it: its spaces with their
// arrows and events, and the board's rendering settings as written.
type BoardDrawing struct {
	Spaces []SpaceDrawing `json:"spaces"`
	Render map[string]any `json:"render"`
}

// SpaceDrawing is a space as the page draws it: ID is the file's, Name
// what players call it (a name made from the id if the file gives none).
type SpaceDrawing struct {
	ID          string           `json:"id"`
	Name        string           `json:"name"`
	Type        string           `json:"type"`
	Visual      Visual           `json:"visual"`
	Connections []ConnectionDraw `json:"connections"`
	Events      []EventText      `json:"events"`
}

// ConnectionDraw is an arrow.
type ConnectionDraw struct {
	Target string `json:"target"`
	Draw   bool   `json:"draw"`
}

// EventText describes a space's event for tooltips.
type EventText struct {
	Trigger  string `json:"trigger"`
	Action   string `json:"action"`
	Priority string `json:"priority"`
}

// Drawing returns the board as the page draws it, a BoardDrawing. It says
// nothing of a match.
func (d *Definition) Drawing() any {
	b := d.Board
	out := BoardDrawing{Render: b.Render, Spaces: []SpaceDrawing{}}
	if out.Render == nil {
		out.Render = map[string]any{}
	}
	for _, sp := range b.Spaces {
		sd := SpaceDrawing{ID: sp.ID, Name: spaceTitle(&sp), Type: sp.Type, Visual: sp.Visual, Connections: []ConnectionDraw{}, Events: []EventText{}}
		for _, c := range sp.Connections {
			sd.Connections = append(sd.Connections, ConnectionDraw{Target: c.Target, Draw: c.Draw})
		}
		for _, ev := range sp.Events {
			sd.Events = append(sd.Events, EventText{Trigger: ev.Trigger, Action: ev.Action.Type, Priority: ev.Priority.String()})
		}
		out.Spaces = append(out.Spaces, sd)
	}
	return out
}
